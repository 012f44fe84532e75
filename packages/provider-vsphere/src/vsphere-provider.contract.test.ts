import test from 'ava';
import { describeProviderContract } from '@wmco/core/testing';
import { vsphereProvider } from './vsphere-provider.js';

describeProviderContract(test, vsphereProvider);
