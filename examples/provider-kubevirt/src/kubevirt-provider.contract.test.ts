import test from 'ava';
import { describeProviderContract } from '@wmco/core/testing';
import { kubevirtProvider } from './kubevirt-provider.js';

describeProviderContract(test, kubevirtProvider);
